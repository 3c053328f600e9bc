class GatedMixtureWrapper:
    def __init__(self, model, classifier):
        self.model = model
        self.classifier = classifier
        self._hook = None

    def forward(self, input_ids, **kw):
        scalings = self.classifier(input_ids)
        # route this step's scalings into the model
        if self._hook is not None:
            self._hook.remove()
        self._hook = self.model.register_forward_pre_hook(make_hook(scalings), with_kwargs=True)
        return self.model(input_ids, **kw)
