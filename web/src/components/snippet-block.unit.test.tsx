// Copy feedback (spec sections 8 and 9): 'Copied!' on the button and a toast, for exactly 2 seconds.
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithToaster } from '../test/render';
import { SnippetBlock } from './snippet-block';

describe('snippet copy button', () => {
  let writeText: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.useFakeTimers();
    writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads 'Copied!' for 2 seconds, then returns to 'Copy'", async () => {
    renderWithToaster(<SnippetBlock label="Website body code" snippet="<script></script>" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy website body code' }));
    await act(async () => {
      await Promise.resolve();
    });

    expect(writeText).toHaveBeenCalledWith('<script></script>');
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(screen.getByText('Website body code copied to clipboard.')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1999));
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: 'Copy website body code' })).toHaveTextContent('Copy');
  });

  it('restarts the 2 seconds on a second copy', async () => {
    renderWithToaster(<SnippetBlock snippet="x" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy embed code' }));
    await act(async () => {
      await Promise.resolve();
    });
    act(() => vi.advanceTimersByTime(1500));
    fireEvent.click(screen.getByRole('button', { name: 'Copied!' }));
    await act(async () => {
      await Promise.resolve();
    });
    act(() => vi.advanceTimersByTime(1500));
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByRole('button', { name: 'Copy embed code' })).toBeInTheDocument();
  });

  it('says so when the clipboard refuses', async () => {
    writeText.mockImplementation(() => Promise.reject(new Error('denied')));
    renderWithToaster(<SnippetBlock snippet="x" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy embed code' }));
    await act(async () => {
      await Promise.resolve();
      await Promise.resolve();
    });
    expect(screen.getByText(/Could not copy to the clipboard/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy embed code' })).toBeInTheDocument();
  });
});
