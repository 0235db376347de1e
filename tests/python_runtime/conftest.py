"""The generated-kernel folder the runtime-only tests load: ATTNC_GENERATED (the GPU kit's
bench/gpu/kit/python), else written here with ATTNC_BINARY (attnc) from kernels.attn."""

import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    folder = os.environ.get("ATTNC_GENERATED")
    if folder:
        return folder
    attnc = os.environ.get("ATTNC_BINARY")
    if not attnc:
        pytest.skip("no generated kernels: set ATTNC_GENERATED, or ATTNC_BINARY to write them")
    folder = str(tmp_path_factory.mktemp("generated"))
    subprocess.run([attnc, "compile", os.path.join(HERE, "kernels.attn"), "-t", "cuda", "--cuda-sm", "90",
                    "--cuda-backward", "-o", folder], check=True)
    return folder
