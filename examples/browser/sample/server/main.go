package main

import (
	"fmt"
	"strconv"
	"strings"
)

// Cart mirrors shop/cart.py on the server side.
type Cart struct {
	Items []int
}

// Total sums the line totals in cents.
func (c *Cart) Total() int {
	sum := 0
	for _, cents := range c.Items {
		sum += cents
	}
	return sum
}

func parse_price(text string) int {
	amount, _, _ := strings.Cut(text, " ")
	value, _ := strconv.ParseFloat(amount, 64)
	return int(value * 100)
}

func main() {
	cart := &Cart{Items: []int{parse_price("12.50 EUR")}}
	fmt.Println(cart.Total())
}
