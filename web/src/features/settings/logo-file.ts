// Logo upload rules of spec sections 5 and 9: an image type, at most 2 MB, stored as a data URL.

export const maxLogoBytes = 2 * 1024 * 1024;
export const recommendedLogoSize = '400x100';

export type LogoFileProblem = { title: string; description: string } | null;

export function checkLogoFile(file: Pick<File, 'size' | 'type'>): LogoFileProblem {
  if (!file.type.startsWith('image/')) {
    return { title: 'Invalid file type', description: 'Please choose an image file (PNG, JPG, etc.).' };
  }
  if (file.size > maxLogoBytes) {
    return { title: 'File too large', description: 'Please choose an image smaller than 2MB.' };
  }
  return null;
}

export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
