/** The benchmark scenarios and how autocannon loads each one. */
import { ITEM_JSON, ROUTE_URL } from '../shared/payload';
import { USER_COUNT, USERS_PATH } from '../shared/users';

export type ScenarioId = 'hello' | 'route' | 'body' | 'mw' | 'users';
export type ReportId = ScenarioId | 'controller' | 'startup';

export interface LoadScenario {
  id: ScenarioId;
  number: number;
  title: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export const LOAD_SCENARIOS: LoadScenario[] = [
  { id: 'hello', number: 1, title: 'GET / → {"hello":"world"}', method: 'GET', path: '/' },
  {
    id: 'route',
    number: 2,
    title: `GET ${ROUTE_URL} (int + slug params, ~100 routes)`,
    method: 'GET',
    path: ROUTE_URL,
  },
  {
    id: 'body',
    number: 3,
    title: `POST /items, ${ITEM_JSON.length}-byte JSON body validated → 201`,
    method: 'POST',
    path: '/items',
    body: ITEM_JSON,
    headers: { 'content-type': 'application/json' },
  },
  { id: 'mw', number: 4, title: 'GET /mw behind 3 async middleware layers', method: 'GET', path: '/mw' },
  {
    id: 'users',
    number: 7,
    title: `GET ${USERS_PATH} → ${USER_COUNT} users of 12 fields through a response model (2 fields filtered out)`,
    method: 'GET',
    path: USERS_PATH,
  },
];

/** Names accepted by --only, numbers included (1–7). */
export const SCENARIO_ALIASES: Record<string, ReportId> = {
  '1': 'hello',
  hello: 'hello',
  '2': 'route',
  route: 'route',
  params: 'route',
  '3': 'body',
  body: 'body',
  '4': 'mw',
  mw: 'mw',
  middleware: 'mw',
  '5': 'controller',
  controller: 'controller',
  '6': 'startup',
  startup: 'startup',
  '7': 'users',
  users: 'users',
  responses: 'users',
};
