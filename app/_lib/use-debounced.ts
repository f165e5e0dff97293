"use client";
// A value that follows another after it has stopped changing for `ms`: searches as the person types
// ask the server once per pause, not once per key.
import { useEffect, useState } from "react";

export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
