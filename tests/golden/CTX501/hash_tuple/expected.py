class BlockIndex:
    def chain_hashes(self, req):
        parent, out = None, []
        for start in range(0, len(req.tokens), 16):
            chunk = tuple(req.tokens[start:start + 16])
            parent = hash((parent, chunk, req.adapter_id))
            out.append(parent)
        return out
