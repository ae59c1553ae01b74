terraform {
  required_version = ">= 1.0"
}

# The web server.
resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = "t2.micro"
}

variable "region" {
  default = "us-east-1"
}

locals {
  name = "x"
}
