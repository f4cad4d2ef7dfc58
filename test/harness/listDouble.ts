/** A double of the service's paging lists, for the unit tests of the reporting read. */
import type { IDataObject } from 'n8n-workflow';

import type { PaymentsClient } from '../../nodes/PaymentsService/transport/client';

/** The window and page a list request asked for (Unix seconds, pages from 0). */
export interface PageAsked {
	from: number;
	to: number;
	page: number;
}

/**
 * A client whose every list request is recorded in `requests`, waits for `pause` (default: one turn
 * of the event loop, so reads in flight interleave), then is answered with the records `rowsOf`
 * gives for it as one page of at most 50 (`{data, page, rows, maxRows: 50}`).
 */
export function listDouble(
	rowsOf: (asked: PageAsked) => unknown[],
	pause: () => Promise<unknown> = () => new Promise((resolve) => setImmediate(resolve)),
): { client: PaymentsClient; requests: PageAsked[] } {
	const requests: PageAsked[] = [];
	const client = {
		context: { getNode: () => ({ name: 'test' }) },
		async request(request: { qs: IDataObject }): Promise<unknown> {
			const { from, to, page } = request.qs;
			const asked = { from: Number(from), to: Number(to), page: Number(page) };
			requests.push(asked);
			await pause();
			const data = rowsOf(asked);
			return { data, page: asked.page, rows: data.length, maxRows: 50 };
		},
	};
	return { client: client as unknown as PaymentsClient, requests };
}
