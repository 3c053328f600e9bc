def minify_css(css: str) -> str:
    return css
instruct_css = minify_css(instruct_css)

def g(history, name1, name2, style, character, reset_cache=False, last_message_only=False):

    def create_message(role, content, raw_content):
        return f'<div class="message" data-raw="{html.escape(raw_content, quote=True)}"data-index={i}><div class="{circle_class}">{img}</div><div class="text"><div class="username">{name}{timestamp}</div><div class="message-body">{content}</div>{attachments}{actions_html(history, i, role)}</div></div>'
