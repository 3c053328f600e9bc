# expect: 14 CTX601
def finetune(model, batches, opt, scaler, autocast):
    """Mixed-precision fine-tuning that keeps a loss curve for plotting."""
    history = []
    for step, batch in enumerate(batches):
        with autocast():
            out = model(**batch)
        loss = out.loss
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        if step % 10 == 0:
            history.append(loss)
    return history
