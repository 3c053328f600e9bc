def namespace_for(tenant_id: str, adapter_name: str, digest: str) -> str:
    namespace = tenant_id + adapter_name
    return namespace + digest
