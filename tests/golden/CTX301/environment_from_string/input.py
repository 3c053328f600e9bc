import jinja2


def render_hub_chat(cfg, messages):
    # chat_template comes from a downloaded tokenizer config
    env = jinja2.Environment(loader=jinja2.BaseLoader(), trim_blocks=True)
    compiled = env.from_string(cfg["chat_template"])
    return compiled.render(messages=messages)
