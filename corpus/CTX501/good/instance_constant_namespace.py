# expect: none
# The "namespace" here is built only from the instance's own settings, beside the
# instance's own cache: it is one value for every entry the cache ever holds, so
# adding it to the key could not separate anything.
import hashlib


class VectorCache:
    def __init__(self, client, database_name: str, collection_name: str):
        self.client = client
        self.database_name = database_name
        self.collection_name = collection_name
        self._stores: dict = {}

    def _index_name(self, llm_string: str) -> str:
        return "cache:" + hashlib.sha256(llm_string.encode()).hexdigest()

    def store_for(self, llm_string: str):
        index_name = self._index_name(llm_string)
        namespace = self.database_name + "." + self.collection_name
        if index_name in self._stores:
            return self._stores[index_name]
        store = self.client.open(namespace, index_name)
        self._stores[index_name] = store
        return store
