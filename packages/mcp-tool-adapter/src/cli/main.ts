#!/usr/bin/env node
import * as nodeModule from "node:module";
import { prestartCallServer } from "./fast-start.js";
import { exitQuietlyWhenReaderLeaves } from "./reader-gone.js";

// Node's compile cache (Node 22.1 and later; TypeScript's tsc does the same): the modules a
// command loads are compiled once and read back on later runs from the OS temp directory, which
// cut about 5% of `call`'s CPU on Node 24. Node 20 has no such function and skips this.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// The bin entry. A `call` of a stdio server spawns it first (the fast path: node builtins and a
// light module), so the server starts while commander, the adapter and the SDK load; everything
// else lives in runCli, which tests call in-process.
exitQuietlyWhenReaderLeaves([process.stdout, process.stderr]);
const argv = process.argv.slice(2);
const prestarted = await prestartCallServer(argv, { cwd: process.cwd(), env: process.env });
const { runCliWithPrestarted } = await import("./run-cli.js");
process.exitCode = await runCliWithPrestarted(argv, prestarted);
// Once nothing is left to do (every write flushed: a pending write keeps the loop alive until
// then), exit at once rather than tear down the heap of every module loaded: Node's own teardown
// after an empty loop cost the CLI about 10-20 ms after its server had exited.
process.once("beforeExit", () => process.exit());
