"""Experiment runner: talk to OpenAI-compatible endpoints and run benchmark protocols.

The modules are listed with their jobs in docs/RUNNER_API.md. Import from the modules themselves
(`from runner.client import ChatClient`); this file stays light so that importing one piece
(say, `runner.prompts` from the scorer) does not pull in aiohttp or OpenCV. Reading a
model's reply is `domain.extract`, below both the runner and the judges.
"""
