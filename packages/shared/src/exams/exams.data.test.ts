import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAM_SYSTEM_FILES, examSystems } from './index.ts';
import { aggregateOf, classOf, readResult, standingCounts } from './results.ts';
import { ExamSystemSchema, STANDINGS } from './schema.ts';

const systemsDir = new URL('./systems/', import.meta.url);
const files = readdirSync(systemsDir).filter((name) => name.endsWith('.json'));

describe('the examination systems', () => {
  it('are all registered, one file each, named by their id', () => {
    expect(EXAM_SYSTEM_FILES).toHaveLength(files.length);
    const ids = examSystems().map((system) => system.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.map((id) => `${id}.json`).sort()).toEqual([...files].sort());
  });

  describe.each(files)('%s', (file) => {
    const raw: unknown = JSON.parse(readFileSync(new URL(file, systemsDir), 'utf8'));
    const checked = ExamSystemSchema.safeParse(raw);

    it('follows the schema', () => {
      expect(checked.error?.issues ?? []).toEqual([]);
    });

    it('lists each scale best first: points in one direction, marks descending and apart', () => {
      const system = ExamSystemSchema.parse(raw);
      for (const scale of Object.values(system.scales)) {
        if (scale.kind === 'marks') {
          expect(scale.min).toBeLessThan(scale.max);
          for (const threshold of Object.values(scale.thresholds)) {
            expect(threshold).toBeGreaterThanOrEqual(scale.min);
            expect(threshold).toBeLessThanOrEqual(scale.max);
          }
          continue;
        }
        const points = scale.grades.map((grade) => grade.points);
        const sorted = [...points].sort((a, b) => (system.aggregate.better === 'lower' ? a - b : b - a));
        expect(points).toEqual(sorted);
        const marks = scale.grades.flatMap((grade) => (grade.marks ? [grade.marks] : []));
        for (const [index, [low, high]] of marks.entries()) {
          expect(low).toBeLessThanOrEqual(high);
          if (index > 0) expect(high).toBeLessThan(marks[index - 1]![0]);
        }
        // A better grade counts as at least what a worse one counts as.
        for (const [index, grade] of scale.grades.entries()) {
          if (index === 0) continue;
          for (const standing of grade.standings) expect(scale.grades[index - 1]!.standings).toContain(standing);
        }
      }
    });

    it("reproduces its sources' worked examples", () => {
      const system = ExamSystemSchema.parse(raw);
      for (const example of system.examples) {
        for (const result of example.results)
          expect(readResult(system, result), `${example.title}: ${result.subject} ${result.grade}`).not.toBeNull();
        const aggregate = aggregateOf(system, example.results, example.declared);
        expect(aggregate, example.title).toBe(example.aggregate);
        if (example.class !== undefined) expect(classOf(system, aggregate), example.title).toBe(example.class);
        const counts = standingCounts(system, example.results);
        for (const standing of STANDINGS)
          if (example.standings[standing] !== undefined)
            expect(counts[standing], `${example.title}: ${standing}`).toBe(example.standings[standing]);
      }
    });

    it('covers its aggregate range with its classes, without overlaps', () => {
      const system = ExamSystemSchema.parse(raw);
      const { classes, range } = system.aggregate;
      for (const entry of classes) {
        expect(entry.min).toBeLessThanOrEqual(entry.max);
        expect(entry.min).toBeGreaterThanOrEqual(range[0]);
        expect(entry.max).toBeLessThanOrEqual(range[1]);
      }
      for (const [index, entry] of classes.entries())
        for (const other of classes.slice(index + 1)) expect(entry.max < other.min || other.max < entry.min).toBe(true);
    });
  });
});
