# expect: none
def configure_content(user_id: str, files: dict, regenerate: bool) -> int:
    indexed = 0
    for name, text in files.items():
        if regenerate or text:
            indexed += 1
    return indexed
