# expect: none
from peft import PeftModel


def evaluate_adapters(base_model, adapter_paths: dict, eval_batches, score_fn) -> dict:
    model = PeftModel.from_pretrained(base_model, adapter_paths["default"], adapter_name="default")
    results = {}
    for tenant_id, path in adapter_paths.items():
        if tenant_id == "default":
            continue
        model.load_adapter(path, adapter_name=tenant_id)
        try:
            model.set_adapter(tenant_id)
            results[tenant_id] = score_fn(model, eval_batches)
        finally:
            model.set_adapter("default")
            model.delete_adapter(tenant_id)
    return results
