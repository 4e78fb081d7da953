# One wheel for every CPython 3: the package is pure Python over libfuselab.so (ctypes, no Python
# ABI), so the wheel is tagged py3-none-<platform> rather than for one interpreter.
from setuptools import setup
from wheel.bdist_wheel import bdist_wheel


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False  # it carries a native library

    def get_tag(self):
        return "py3", "none", super().get_tag()[2]


setup(cmdclass={"bdist_wheel": PlatformWheel})
