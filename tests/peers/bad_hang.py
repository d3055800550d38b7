"""Test fixture: custom_kernel never returns."""
import time
def custom_kernel(data):
    while True:
        time.sleep(1)
