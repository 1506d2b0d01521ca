// The signed-in owner's recent exports (GET /api/exports): every download of consent data is
// recorded by the api, so the list survives reloads and other devices. An admin-only session has
// none (its exports are not an owner's).
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ExportFormat } from './download-export';

export interface RecentExport {
  id: string;
  /** null: all websites. */
  websiteId: string | null;
  format: ExportFormat;
  rowCount: number;
  exportedAt: string;
}

export function recentExportsQueryOptions() {
  return queryOptions({
    queryKey: ['exports'],
    queryFn: () => getJson<RecentExport[]>('/api/exports'),
  });
}
