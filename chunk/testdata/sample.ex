defmodule Shop.Cart do
  @moduledoc """
  A cart.
  """
  alias Shop.Item

  @doc "Creates a cart."
  def new(items \\ []) do
    %{items: items}
  end

  defp secret(x), do: x * 2

  defmacro debug(x) do
    quote do: IO.inspect(unquote(x))
  end

  defmodule Inner do
    def deep, do: :ok
  end
end
