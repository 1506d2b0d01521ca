// Downloads a consent export (GET /api/export/consents), or any other file the api serves (the
// leads' CSV and audience files), as a file. The api names the file in Content-Disposition; when it
// does not, the name says what and when.
import type { ApiQuery } from '../../lib/api-types';

/** `websiteId` omitted for all websites. */
export type ExportRequest = Required<Pick<ApiQuery<'/api/export/consents'>, 'format'>> & Pick<ApiQuery<'/api/export/consents'>, 'websiteId'>;
export type ExportFormat = ExportRequest['format'];

export interface ExportedFile {
  fileName: string;
  sizeBytes: number;
}

export function buildExportUrl({ format, websiteId }: ExportRequest): string {
  const params = new URLSearchParams({ format });
  if (websiteId) params.set('websiteId', websiteId);
  return `/api/export/consents?${params.toString()}`;
}

/** The file name the api gave in Content-Disposition, else the fallback. */
export function getDownloadFileName(response: Response, fallback: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  if (match?.[1]) return decodeURIComponent(match[1]);
  return fallback;
}

/**
 * GETs a file with the session's cookies and hands it to the browser as a download. Fetched rather
 * than linked, so a refusal becomes an error the screen can report instead of a page of JSON.
 */
export async function downloadFile(url: string, fallbackFileName: string): Promise<ExportedFile> {
  const response = await fetch(url, { credentials: 'include' });
  if (!response.ok) throw new Error(`${response.status}: ${(await response.text()) || response.statusText}`);
  const blob = await response.blob();
  const fileName = getDownloadFileName(response, fallbackFileName);
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoke after the click has been handled; revoking synchronously can cancel the download.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  }
  return { fileName, sizeBytes: blob.size };
}

export async function downloadExport(request: ExportRequest, now = new Date()): Promise<ExportedFile> {
  return downloadFile(buildExportUrl(request), `consent-data-${now.toISOString().slice(0, 10)}.${request.format}`);
}
