#!/usr/bin/env python3
"""Outside oracle for resources/examples/llama_decode.tpo: transformers' own
LlamaForCausalLM, loaded from the example's checkpoint directory (config.json and
model.safetensors, made by make_tiny_llama.py), against what `tempo run` writes.

Usage (by hand, not by the tests; needs torch, transformers and numpy from PyPI):
    python3 tests/scripts/check_llama_with_transformers.py build/app/tempo [--engine reference]

Runs the example, then one forward pass of the Hugging Face model over the tokens the
program produced (causal attention over the whole sequence gives every position's
logits, which our program computes position by position) and checks that
  - the logits agree within 1e-4 (absolute, on logits of magnitude ~10),
  - each generated token is the argmax of the model's logits at the position before, or
    EOS once its sequence has generated EOS (greedy decoding: transformers'
    generate(do_sample=False) picks the same ids and pads a finished sequence with
    pad_token_id = eos_token_id),
  - generate() itself, from the prompt, with at most T positions, produces the same
    sequences and stops at the same position (where every sequence has generated EOS:
    the program's `dim t < T until fin`), and
  - argtopk(logits, 3) gives torch.topk's indices.
Exits 1 when any check fails.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
from transformers import LlamaForCausalLM

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.path.join(ROOT, "resources", "examples", "llama_decode.tpo")
CHECKPOINT = os.path.join(ROOT, "resources", "examples", "data", "llama_decode")
TOLERANCE = 1e-4


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tempo", help="the tempo binary (build/app/tempo)")
    parser.add_argument("--engine", default="compiled", choices=["compiled", "reference"])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as out:
        subprocess.run([args.tempo, "run", PROGRAM, "--engine", args.engine, "--out", out], check=True,
                       stdout=subprocess.DEVNULL)
        ours = np.load(os.path.join(out, "logits.npy"))          # (B, T, V)
        tok = np.load(os.path.join(out, "tok.npy"))              # (B, T)
        top3 = np.load(os.path.join(out, "top3.npy"))            # (B, T, 3)
    prompt = np.load(os.path.join(CHECKPOINT, "prompt.npy"))     # (B, P)
    with open(os.path.join(CHECKPOINT, "config.json")) as f:
        eos = json.load(f)["eos_token_id"]
    with open(PROGRAM) as f:
        most = int(re.search(r"\bT = (\d+)", f.read()).group(1))  # the program's most positions

    torch.manual_seed(0)
    model = LlamaForCausalLM.from_pretrained(CHECKPOINT, torch_dtype=torch.float32)
    model.eval()
    with torch.no_grad():
        theirs = model(torch.from_numpy(tok)).logits.numpy()   # (B, T, V)
        ids = torch.from_numpy(prompt)  # no padding in the prompts: every position attends
        generated = model.generate(ids, attention_mask=torch.ones_like(ids), max_length=most, do_sample=False,
                                   eos_token_id=eos, pad_token_id=eos).numpy()

    failures = 0
    error = float(np.abs(ours - theirs).max())
    print(f"logits {ours.shape}: largest absolute difference {error:.3g} (largest |logit| "
          f"{np.abs(theirs).max():.3g}); tolerance {TOLERANCE}")
    failures += error > TOLERANCE
    P = prompt.shape[1]
    greedy = theirs[:, :-1].argmax(-1)
    finished = np.logical_or.accumulate(tok[:, P:] == eos, axis=1)  # after its first EOS, EOS
    greedy[:, P:] = np.where(finished[:, :-1], eos, greedy[:, P:])
    if not np.array_equal(greedy[:, P - 1:], tok[:, P:]):
        print("the generated ids are not the argmax of transformers' logits:", tok.tolist(), greedy.tolist())
        failures += 1
    if not np.array_equal(torch.topk(torch.from_numpy(theirs), 3).indices.numpy(), top3):
        print("argtopk(logits, 3) differs from torch.topk's indices")
        failures += 1
    if not np.array_equal(generated, tok):
        print("transformers' generate() gives", generated.tolist(), "and ours", tok.tolist())
        failures += 1
    print(f"generated ids (ours and generate(), EOS {eos}, {tok.shape[1]} of at most {most} positions):",
          tok.tolist())
    print("FAIL" if failures else "OK")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
