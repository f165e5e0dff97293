"use client";
// A topic without claims. Client-side for the segment's name (a not-found page gets no params).
import Link from "~/app/_components/link.tsx";
import { useParams } from "next/navigation";
import ui from "../_components/ui.module.css";

/** The browser's params are the URL's segments as sent (still percent-encoded): decoded once here. */
function decodedOnce(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export default function TopicNotFound() {
  const params = useParams<{ tag?: string }>();
  const tag = params.tag ? decodedOnce(params.tag) : null;
  return (
    <div className={`${ui.card} ${ui["error-state"]}`}>
      <h1>Topic not found</h1>
      <p className={ui.muted} data-testid="topic-not-found">
        {tag ? <>No claim is tagged #{tag}.</> : <>No claim has this tag.</>}
      </p>
      <Link href="/discover" className={ui.button}>
        Discover topics
      </Link>
    </div>
  );
}
