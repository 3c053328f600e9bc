# expect: 19 CTX501
# The same instance-built namespace beside a MODULE-level cache: every instance
# (one per tenant database) shares the dict, so the namespace must be in the key.
import hashlib

_STORES: dict = {}


class VectorCache:
    def __init__(self, client, database_name: str, collection_name: str):
        self.client = client
        self.database_name = database_name
        self.collection_name = collection_name

    def store_for(self, llm_string: str):
        index_name = "cache:" + hashlib.sha256(llm_string.encode()).hexdigest()
        namespace = self.database_name + "." + self.collection_name
        store = self.client.open(namespace, index_name)
        _STORES[index_name] = store
        return store
