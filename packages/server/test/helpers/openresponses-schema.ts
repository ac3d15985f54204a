import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

// Validates what the gateway serves on POST /v1/responses against the published Open Responses schema
// (fixtures/openresponses/openapi.json, kept unchanged). OpenAPI 3.1 schemas are JSON Schema 2020-12, so Ajv's 2020
// dialect reads them as they are; the only OpenAPI keyword they use, `discriminator`, is Ajv's own `discriminator`
// option (it picks the oneOf branch by `type`, as OpenAPI means it). The annotation-only keywords the schemas
// carry (`example`, `x-enumDescriptions`, `x-unionDisplay`, `x-unionTitle`) are declared as such, and so are the
// fields of the OpenAPI object at the document's root (it is the base every `#/components/...` reference resolves
// against, not a schema), so Ajv stays strict about anything else.

const DOCUMENT = 'openresponses.json';
const RESPONSE = `${DOCUMENT}#/components/schemas/ResponseResource`;
const STREAM_EVENT = `${DOCUMENT}#/paths/~1responses/post/responses/200/content/text~1event-stream/schema`;

// strictTypes is off: it is a style lint (a union with `discriminator` but no `type: "object"` beside it), which the
// published document does not follow; unknown keywords and the rest of strict mode stay on.
const ajv = new Ajv2020({ discriminator: true, allErrors: true, strict: true, strictTypes: false });
ajv.addVocabulary(['example', 'x-enumDescriptions', 'x-unionDisplay', 'x-unionTitle']);
ajv.addVocabulary(['openapi', 'info', 'servers', 'components', 'paths']);
ajv.addSchema(
  JSON.parse(readFileSync(new URL('../fixtures/openresponses/openapi.json', import.meta.url), 'utf8')) as object,
  DOCUMENT,
);

const compiled = new Map<string, ValidateFunction>();
function validator(ref: string): ValidateFunction {
  const known = compiled.get(ref);
  if (known) return known;
  const validate = ajv.compile({ $ref: ref });
  compiled.set(ref, validate);
  return validate;
}

function errorsOf(ref: string, value: unknown): string[] {
  const validate = validator(ref);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error: ErrorObject) =>
      `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
  );
}

/** What makes a Response object (the JSON answer, or the `response` of a lifecycle event) invalid; empty if valid. */
export const responseSchemaErrors = (response: unknown): string[] => errorsOf(RESPONSE, response);

/** What makes one stream event (the parsed `data:` of an SSE event) invalid against the event union; empty if valid. */
export const streamEventSchemaErrors = (event: unknown): string[] => errorsOf(STREAM_EVENT, event);

/** Every invalid event of a stream, by position and type; empty if all are valid. */
export function streamSchemaErrors(events: readonly unknown[]): string[] {
  return events.flatMap((event, index) =>
    streamEventSchemaErrors(event).map((error) => `#${index} ${(event as { type?: string }).type}: ${error}`),
  );
}

/** The data of each event in an SSE body, parsed. */
export function sseEvents(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n\n')
    .flatMap((block) => block.split('\n').filter((line) => line.startsWith('data: ')))
    .map((line) => line.slice(6))
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}
