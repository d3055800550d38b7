"""Test fixture: custom_kernel raises."""
def custom_kernel(data):
    raise ValueError("boom at item 3")
