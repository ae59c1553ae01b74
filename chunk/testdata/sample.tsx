import React from "react";

type Props = { title: string };

// Header renders the title.
export const Header = ({ title }: Props) => {
  const inner = () => <span>{title}</span>;
  return <h1>{inner()}</h1>;
};

export default function App(): JSX.Element {
  return <Header title="hi" />;
}

class Legacy extends React.Component<Props> {
  render() {
    return <div>{this.props.title}</div>;
  }
}
