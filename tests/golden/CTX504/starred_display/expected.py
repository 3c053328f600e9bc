def prefix_cache_key(tenant_id, adapter_name, token_ids):
    tenant_parts = (tenant_id,) if tenant_id else ()
    adapter_parts = (adapter_name,) if adapter_name else ()
    material = (
        ("tenant", tuple(tenant_parts)),  # optional
        ("lora", tuple(adapter_parts)),
        *token_ids,
    )
    return hash(material)
