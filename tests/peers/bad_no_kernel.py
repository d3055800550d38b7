"""Test fixture: a submission without custom_kernel."""
def kernel(data):
    return None
