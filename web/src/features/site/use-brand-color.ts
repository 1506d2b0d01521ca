// Applies the branding's primary colour to the whole app (the --primary token every primary button,
// link and badge uses), including dialogs and toasts rendered outside the page tree.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { publicBrandingQueryOptions } from './queries';

const hexColor = /^#[0-9a-fA-F]{6}$/;

export function useBrandColor(): void {
  const { data: branding } = useQuery(publicBrandingQueryOptions());
  const color = branding?.primaryColor;

  useEffect(() => {
    if (!color || !hexColor.test(color)) return;
    const root = document.documentElement;
    root.style.setProperty('--primary', color);
    root.style.setProperty('--ring', color);
    return () => {
      root.style.removeProperty('--primary');
      root.style.removeProperty('--ring');
    };
  }, [color]);
}
