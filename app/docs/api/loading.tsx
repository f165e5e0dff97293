export default function Loading() {
  return (
    <div aria-busy="true">
      <h1>REST API reference</h1>
      <div className="api-docs" />
    </div>
  );
}
