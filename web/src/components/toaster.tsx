// The app's toasts: `useToast().toast({ title, description })` from any component below <Toaster>.
// Only one toast is visible at a time (spec section 9): a new one replaces the current one. A
// dismissed toast stays mounted for its exit animation and is purged after TOAST_REMOVE_DELAY_MS.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport, type ToastAction } from './ui/toast';

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastOptions {
  title: string;
  description?: ReactNode;
  variant?: 'default' | 'destructive';
  /** A <ToastAction altText="…"> shown beside the text. */
  action?: ReactElement<typeof ToastAction>;
}

interface ToastEntry extends ToastOptions {
  id: number;
  open: boolean;
}

export interface ToastApi {
  toast: (options: ToastOptions) => { id: number; dismiss: () => void };
  dismiss: (id?: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <Toaster>');
  return api;
}

export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const nextId = useRef(1);
  const removalTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const scheduleRemoval = useCallback((id: number) => {
    if (removalTimers.current.has(id)) return;
    const timer = setTimeout(() => {
      removalTimers.current.delete(id);
      setToasts((current) => current.filter((entry) => entry.id !== id));
    }, TOAST_REMOVE_DELAY_MS);
    removalTimers.current.set(id, timer);
  }, []);

  const dismiss = useCallback(
    (id?: number) => {
      setToasts((current) =>
        current.map((entry) => {
          if (id !== undefined && entry.id !== id) return entry;
          scheduleRemoval(entry.id);
          return { ...entry, open: false };
        }),
      );
    },
    [scheduleRemoval],
  );

  const toast = useCallback(
    (options: ToastOptions) => {
      const id = nextId.current++;
      setToasts((current) => [{ ...options, id, open: true }, ...current].slice(0, TOAST_LIMIT));
      return { id, dismiss: () => dismiss(id) };
    },
    [dismiss],
  );

  useEffect(() => {
    const timers = removalTimers.current;
    return () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    };
  }, []);

  const api = useMemo<ToastApi>(() => ({ toast, dismiss }), [toast, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      <ToastProvider>
        {children}
        {toasts.map(({ id, title, description, variant, action, open }) => (
          <Toast
            key={id}
            variant={variant}
            open={open}
            onOpenChange={(isOpen) => {
              if (!isOpen) dismiss(id);
            }}
          >
            <div className="grid gap-1">
              <ToastTitle>{title}</ToastTitle>
              {description ? <ToastDescription>{description}</ToastDescription> : null}
            </div>
            {action}
            <ToastClose />
          </Toast>
        ))}
        <ToastViewport />
      </ToastProvider>
    </ToastContext.Provider>
  );
}
