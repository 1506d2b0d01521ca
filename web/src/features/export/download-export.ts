// Downloads a consent export (GET /api/export/consents) as a file. The api names the file in
// Content-Disposition; when it does not, the name says what and when.

export type ExportFormat = 'csv' | 'json';

export interface ExportRequest {
  format: ExportFormat;
  /** Omitted for all websites. */
  websiteId?: string;
}

export interface ExportedFile {
  fileName: string;
  sizeBytes: number;
}

export function buildExportUrl({ format, websiteId }: ExportRequest): string {
  const params = new URLSearchParams({ format });
  if (websiteId) params.set('websiteId', websiteId);
  return `/api/export/consents?${params.toString()}`;
}

function getFileName(response: Response, format: ExportFormat, now: Date): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  if (match?.[1]) return decodeURIComponent(match[1]);
  return `consent-data-${now.toISOString().slice(0, 10)}.${format}`;
}

export async function downloadExport(request: ExportRequest, now = new Date()): Promise<ExportedFile> {
  const response = await fetch(buildExportUrl(request), { credentials: 'include' });
  if (!response.ok) throw new Error(`${response.status}: ${(await response.text()) || response.statusText}`);
  const blob = await response.blob();
  const fileName = getFileName(response, request.format, now);
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoke after the click has been handled; revoking synchronously can cancel the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return { fileName, sizeBytes: blob.size };
}
