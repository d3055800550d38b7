"""Test fixture: custom_kernel kills its process (as a segfaulting extension would)."""
import os
def custom_kernel(data):
    os.abort()
