import type { Reporter, TestModule } from 'vitest/node'

/**
 * After Vitest's own summary: the seconds each project's test files took
 * (summed over files; projects and files run side by side, so this is work,
 * not wall time), the slowest files (where CI's minutes go), and the plain
 * `N passed, N failed` closing line CI reads.
 */
const SLOWEST_SHOWN = 12

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    const projects = new Map<string, { files: number; tests: number; ms: number }>()
    const files: { name: string; ms: number }[] = []
    for (const module of testModules) {
      const name = module.project.name || 'default'
      const project = projects.get(name) ?? { files: 0, tests: 0, ms: 0 }
      project.files++
      project.ms += module.diagnostic().duration
      files.push({ name: `${name}: ${module.relativeModuleId}`, ms: module.diagnostic().duration })
      projects.set(name, project)
      for (const test of module.children.allTests()) {
        project.tests++
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      if (module.state() === 'failed' && module.children.size === 0) failed++
    }
    if (projects.size > 1) {
      console.log('\nseconds per project (test files summed):')
      for (const [name, p] of projects)
        console.log(
          `  ${name.padEnd(12)} ${String(p.files).padStart(4)} files ${String(p.tests).padStart(5)} tests ${(p.ms / 1000).toFixed(1).padStart(8)} s`,
        )
    }
    if (files.length > SLOWEST_SHOWN) {
      console.log(`\nslowest ${SLOWEST_SHOWN} test files:`)
      for (const file of files.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN))
        console.log(`  ${(file.ms / 1000).toFixed(1).padStart(7)} s  ${file.name}`)
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
  }
}
