# expect: none
def render_styles(pipe, styles: list[dict], prompt: str, out_dir: str) -> list[str]:
    paths = []
    for style in styles:
        pipe.load_lora_weights(style["repo"], adapter_name=style["name"])
        pipe.set_adapters([style["name"]], adapter_weights=[style.get("scale", 1.0)])
        image = pipe(prompt).images[0]
        pipe.unload_lora_weights()
        path = f"{out_dir}/{style['name']}.png"
        image.save(path)
        paths.append(path)
    return paths
