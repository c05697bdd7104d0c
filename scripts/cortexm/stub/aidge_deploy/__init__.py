"""A stand-in for `aidge_deploy` (not on PyPI), which aidge-export-arm-cortexm 0.10.1's
benchmark module imports at package import time. The export itself never calls it."""


class DeployConfig:
    pass


def deploy(*args, **kwargs):
    raise RuntimeError("aidge_deploy is a stub here: memplan builds and runs the export itself")
