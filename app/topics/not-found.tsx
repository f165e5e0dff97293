"use client";
// A topic without claims. Client-side for the segment's name (a not-found page gets no params).
import Link from "next/link";
import { useParams } from "next/navigation";
import ui from "../_components/ui.module.css";

export default function TopicNotFound() {
  const params = useParams<{ tag?: string }>();
  return (
    <div className={`${ui.card} ${ui["error-state"]}`}>
      <h1>Topic not found</h1>
      <p className={ui.muted} data-testid="topic-not-found">
        {params.tag ? <>No claim is tagged #{params.tag}.</> : <>No claim has this tag.</>}
      </p>
      <Link href="/discover" className={ui.button}>
        Discover topics
      </Link>
    </div>
  );
}
