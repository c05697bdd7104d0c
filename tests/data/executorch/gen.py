"""Writes the ExecuTorch fixtures of tests/data/executorch/ with the real package (see README.md).

Run with a venv holding the pinned versions:
    python3 -m venv /work/venvs/executorch
    /work/venvs/executorch/bin/pip install executorch==1.5.1 torch==2.14.1
    /work/venvs/executorch/bin/python tests/data/executorch/gen.py

Two small models are built here with random weights (no download): a CNN with a
residual add, and an MLP whose two branches meet again. Each is exported with
torch.export, lowered with to_edge(...).to_executorch() (ExecuTorch's default memory
planning), and its memory trace written with

    generate_memory_trace(program, "NAME.trace.json", enable_memory_offsets=True)

NAME.program.json records what the program itself says: its planned buffer sizes per
memory id (execution_plan[0].non_const_buffer_sizes), which the tests compare with
memplan's reading. cnn.no-offsets.trace.json is the CNN's trace written without
enable_memory_offsets (the function's default), which memplan must refuse.
"""
import json
import os
import sys

import torch
from executorch.exir import to_edge
from executorch.util.activation_memory_profiler import generate_memory_trace
from torch.export import export

HERE = os.path.dirname(os.path.abspath(__file__))
PINNED = {"executorch": "1.5.1", "torch": "2.14.1"}


def check_versions():
    from importlib.metadata import version

    for name, want in PINNED.items():
        got = version(name).split("+")[0]
        if got != want:
            sys.exit(f"{name} {got} installed, the fixtures are made with {want}")


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = torch.nn.Conv2d(16, 16, 3, padding=1)
        self.c3 = torch.nn.Conv2d(16, 16, 3, padding=1)
        self.c4 = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        x = torch.relu(self.c1(x))
        y = self.c3(torch.relu(self.c2(x)))
        x = torch.nn.functional.max_pool2d(torch.relu(x + y), 2)
        x = torch.nn.functional.max_pool2d(torch.relu(self.c4(x)), 2)
        return self.fc(x.mean(dim=(2, 3)))


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 256)
        self.fc2a, self.fc3a = torch.nn.Linear(256, 512), torch.nn.Linear(512, 256)
        self.fc2b, self.fc3b = torch.nn.Linear(256, 128), torch.nn.Linear(128, 256)
        self.fc4 = torch.nn.Linear(256, 10)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        a = self.fc3a(torch.relu(self.fc2a(h)))
        b = self.fc3b(torch.tanh(self.fc2b(h)))
        return torch.softmax(self.fc4(torch.relu(a + b + h)), dim=-1)


def main():
    check_versions()
    torch.manual_seed(0)
    for name, model, example in [("cnn", Cnn(), torch.randn(1, 3, 32, 32)), ("mlp", Mlp(), torch.randn(8, 64))]:
        program = to_edge(export(model.eval(), (example,))).to_executorch()
        trace = f"{HERE}/{name}.trace.json"
        generate_memory_trace(program, trace, enable_memory_offsets=True)
        if name == "cnn":
            # The same trace without offsets (the function's default): memplan refuses it.
            generate_memory_trace(program, f"{HERE}/{name}.no-offsets.trace.json")
        plan = program.executorch_program.execution_plan[0]
        with open(f"{HERE}/{name}.program.json", "w") as f:
            json.dump({"non_const_buffer_sizes": list(plan.non_const_buffer_sizes)}, f)
            f.write("\n")
        print(trace, list(plan.non_const_buffer_sizes))


main()
