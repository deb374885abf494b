#!/usr/bin/env bash
# One call on a bare GPU machine that has Python and torch but not this project's
# environment (see CONTRIBUTING.md, "GPU cells"): install the wheels `make gpu-wheels`
# put in .whl/, store the chapters' GPU outputs, compare them once more, and copy the
# notebooks to $OUT (the folder that comes back), with the log.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${OUT:?set OUT to the folder the notebooks should be copied to}"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/gatherlab-site .whl/*.whl
export PYTHONPATH="/tmp/gatherlab-site:$PWD" PYTHONUNBUFFERED=1
python3 -c 'import torch; print("torch", torch.__version__, "on", torch.cuda.get_device_name())'
status=0
python3 tools/run/gpu_outputs.py notebooks/[0-9][0-9]_*.ipynb 2>&1 | tee "$out/gpu-run.log" || status=1
python3 tools/run/gpu_outputs.py --check notebooks/[0-9][0-9]_*.ipynb 2>&1 | tee -a "$out/gpu-run.log" || status=1
cp notebooks/[0-9][0-9]_*.ipynb "$out/"
exit "$status"
