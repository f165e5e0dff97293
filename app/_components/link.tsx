"use client";
// Every link of the site. Next's own prefetches each link's page as it scrolls into view: on a phone a
// page of claim cards then fetches and evaluates a dozen pages' data and scripts while its own are still
// starting (the home page's blocking time, docs/benchmarks/2026-11-29-lighthouse.md). Here a page is
// fetched ahead only once the link is pointed at or touched, which still leaves the time between the
// pointer arriving and the click.
import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps, MouseEvent, TouchEvent } from "react";

type Props = ComponentProps<typeof NextLink>;

export default function Link({ prefetch, onMouseEnter, onTouchStart, ...props }: Props) {
  const router = useRouter();
  const ahead = () => {
    if (prefetch !== false && typeof props.href === "string" && props.href.startsWith("/")) router.prefetch(props.href);
  };
  return (
    <NextLink
      {...props}
      prefetch={false}
      onMouseEnter={(e: MouseEvent<HTMLAnchorElement>) => {
        onMouseEnter?.(e);
        ahead();
      }}
      onTouchStart={(e: TouchEvent<HTMLAnchorElement>) => {
        onTouchStart?.(e);
        ahead();
      }}
    />
  );
}
