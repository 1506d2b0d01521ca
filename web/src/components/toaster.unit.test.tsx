// Only one toast is visible at a time (spec sections 8 and 9): a new toast replaces the current one.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster, useToast } from './toaster';

function Trigger() {
  const { toast } = useToast();
  return (
    <>
      <button onClick={() => toast({ title: 'First' })}>first</button>
      <button onClick={() => toast({ title: 'Second', description: 'details' })}>second</button>
    </>
  );
}

describe('toaster', () => {
  it('shows one toast at a time', () => {
    render(
      <Toaster>
        <Trigger />
      </Toaster>,
    );
    act(() => fireEvent.click(screen.getByText('first')));
    expect(screen.getByText('First')).toBeInTheDocument();
    act(() => fireEvent.click(screen.getByText('second')));
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.queryByText('First')).not.toBeInTheDocument();
  });

  it('has an F8 hotkey on its labelled viewport', () => {
    render(
      <Toaster>
        <Trigger />
      </Toaster>,
    );
    expect(screen.getByRole('region', { name: /Notifications \(F8\)/ })).toBeInTheDocument();
  });
});
