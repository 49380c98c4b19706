#!/usr/bin/env node
import { runCli } from "./run-cli.js";

// The bin entry: everything else lives in runCli, which tests call in-process.
process.exitCode = await runCli(process.argv.slice(2));
