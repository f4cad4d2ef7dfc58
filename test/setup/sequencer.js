const fs = require('fs');
const path = require('path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Jest's order: failed first, then longest first by the last run's times; with no times on record
 * (a clean checkout, as in CI) largest first. A group file (`test/unit/reporting.test.ts`…) weighs
 * what the specs it imports weigh: by its own size, jest would start the longest group last.
 */
class GroupAwareSequencer extends Sequencer {
	sort(tests) {
		const weights = new Map();
		const weight = ({ path: file }) => {
			if (!weights.has(file)) {
				const text = fs.readFileSync(file, 'utf8');
				const specs = [...text.matchAll(/^import '\.\/([\w./-]+\.spec)';$/gm)].map((match) =>
					path.join(path.dirname(file), `${match[1]}.ts`),
				);
				weights.set(
					file,
					specs.reduce((sum, spec) => sum + fs.statSync(spec).size, text.length),
				);
			}
			return weights.get(file);
		};
		for (const test of tests) test.duration = this.time(test);
		return tests.sort((a, b) => {
			const failedA = this.hasFailed(a);
			if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
			const timedA = a.duration != null;
			// A test without a time on record (new) runs first, as in jest's own order.
			if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
			return timedA ? b.duration - a.duration : weight(b) - weight(a);
		});
	}
}

module.exports = GroupAwareSequencer;
