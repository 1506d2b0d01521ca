// The api's contract as types: names over api-schema.gen.ts, which `npm run gen:api` generates from
// the api's OpenAPI document, so no answer or request body is described twice. Features alias what
// they use (`type Website = ApiSchemas['Website']`), from a named schema or from a path's answer.
import type { components, paths } from './api-schema.gen';

/** The schemas the api names (`Website`, `WebsiteSettings`, …), as it answers them. */
export type ApiSchemas = components['schemas'];

export type ApiPath = keyof paths;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type JsonOf<Content> = Content extends { content: { 'application/json': infer Json } } ? Json : never;

/** The JSON `method path` answers with `status` (a GET's 200 unless told). */
export type ApiAnswer<Path extends ApiPath, M extends Method = 'get', Status extends number = 200> = paths[Path][M] extends {
  responses: infer Responses;
}
  ? Status extends keyof Responses
    ? JsonOf<Responses[Status]>
    : never
  : never;

/** The JSON body `method path` takes. */
export type ApiBody<Path extends ApiPath, M extends Exclude<Method, 'get'>> = paths[Path][M] extends { requestBody?: infer Body }
  ? JsonOf<NonNullable<Body>>
  : never;

/** The query parameters `method path` takes (a GET's unless told). */
export type ApiQuery<Path extends ApiPath, M extends Method = 'get'> = paths[Path][M] extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;
