using System;
using System.Collections.Generic;

namespace Shop.Models
{
    /// <summary>
    /// An order.
    /// </summary>
    [Serializable]
    public class Order : IOrder
    {
        private readonly List<string> _items = new();
        public int Id { get; set; }

        /// <summary>Creates an order.</summary>
        public Order(int id)
        {
            Id = id;
        }

        [Obsolete]
        internal void Add(string item)
        {
            _items.Add(item);
        }

        private static int Count() => 0;
    }

    public interface IOrder
    {
        int Id { get; }
    }

    public enum Status { Open, Closed }

    public struct Money
    {
        public decimal Amount;
    }

    public record Person(string Name);
}
