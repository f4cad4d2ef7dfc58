/**
 * Unit tests of the action node's modules: its operations' registry and tool descriptions, the
 * requests it sends (auth, bodies, transport), create-once (idempotency), the service's codes and
 * reference data, and the credentials' editor test.
 *
 * One jest file for several specs (see CONTRIBUTING.md, "Tests"); a spec also runs by itself
 * (`npx jest test/unit/transport/retry.spec.ts`).
 */
import './actions/registry.spec';
import './actions/report/chunkStream.spec';
import './actions/report/read.spec';
import './actions/toolDescriptions.spec';
import './auth/session.spec';
import './auth/signature.spec';
import './bodies/cashoutSchema.spec';
import './bodies/depositSchema.spec';
import './bodies/jsonNumbers.spec';
import './bodies/refundSchema.spec';
import './bodies/requestFields.spec';
import './codes/cashoutStatus.spec';
import './codes/dates.spec';
import './codes/ids.spec';
import './editorCredentials.spec';
import './idempotency/createOnce.spec';
import './idempotency/history.spec';
import './idempotency/keys.spec';
import './idempotency/lookUp.spec';
import './idempotency/messages.spec';
import './idempotency/requestKey.spec';
import './parameters/codeOptions.spec';
import './parameters/values.spec';
import './reference/countries.spec';
import './transport/client.spec';
import './transport/errors.spec';
import './transport/multipart.spec';
import './transport/retry.spec';
