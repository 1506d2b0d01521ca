// Joins class names and lets later Tailwind utilities win over earlier ones, so a feature can pass
// `className` to a UI primitive and override its defaults.
import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
