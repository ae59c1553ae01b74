require 'json'

# Utilities.
module Shop
  # A cart.
  class Cart < Base
    attr_reader :items

    # Creates a cart.
    def initialize(items = [])
      @items = items
    end

    def self.build
      new
    end

    private

    def secret
      42
    end
  end
end

def helper(x)
  x * 2
end
