def namespace_for(tenant_id: str, adapter_name: str, digest: str) -> str:
    namespace = f"tenant={tenant_id!r}" + f"lora={adapter_name!r}"
    return namespace + digest
