# expect: 8 CTX405
def render_styles(pipe, styles: list[dict], prompt: str, out_dir: str) -> list[str]:
    """Render one image per LoRA style; every style's weights stay fused into the pipeline."""
    paths = []
    for style in styles:
        while style.get("retries", 1) > 0:
            style["retries"] = style.get("retries", 1) - 1
            pipe.load_lora_weights(style["repo"], adapter_name=style["name"])
            pipe.set_adapters([style["name"]], adapter_weights=[style.get("scale", 1.0)])
            image = pipe(prompt).images[0]
            path = f"{out_dir}/{style['name']}.png"
            image.save(path)
            paths.append(path)
    return paths
