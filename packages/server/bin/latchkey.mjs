#!/usr/bin/env node
// Runs the TypeScript CLI through tsx (Node 20 cannot strip types itself).
import { register } from 'tsx/esm/api'

register()
const { runCli } = await import('../src/cli.ts')
const code = await runCli(process.argv.slice(2))
if (code !== 0) process.exitCode = code
