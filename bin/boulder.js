#!/usr/bin/env node
// The bundled command line (`dist/cli/boulder.cjs`, see `tsdown.config.ts`): one file, compiled once into V8's code cache.
import { createRequire } from "node:module";

createRequire(import.meta.url)("../dist/cli/boulder.cjs");
