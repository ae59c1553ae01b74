import React from "react";

/** A button. */
export function Button({ label }) {
  return <button>{label}</button>;
}

const App = () => (
  <div>
    <Button label="x" />
  </div>
);

export default App;
