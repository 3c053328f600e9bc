# expect: none
# A command-line tool's run context reports the outcome of the run as the exit status
# after the body; an exception from the body ends the program by itself.
import argparse
import contextlib
import sys


class Tool:
    def __init__(self) -> None:
        self.parser = argparse.ArgumentParser()
        self.parser.add_argument("--check", action="store_true")
        self.diffs_detected = False

    @contextlib.contextmanager
    def run_program(self):
        self.args = self.parser.parse_args()
        yield
        if self.args.check and self.diffs_detected:
            sys.exit(1)
        else:
            sys.exit(0)
